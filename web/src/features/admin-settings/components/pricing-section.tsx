import { useId } from "react";
import type { UseFormReturn } from "react-hook-form";
import { CURRENCIES, CURRENCY_MINIMUMS, formatMoney } from "@contracts/money";
import { AdminSection } from "@/components/admin/admin-section";
import { FormField } from "@/components/ui/form-field";
import { CoinsIcon } from "@/components/ui/icons";
import { useCan } from "@/lib/admin-auth";
import type { SettingsFormInput, SettingsFormValues } from "../lib/settings-form";

const OWNER_ONLY = "Only an owner can change the price or currency.";

const CURRENCY_NAMES: Record<string, string> = {
  gbp: "Pound sterling",
  eur: "Euro",
  usd: "US dollar",
  cad: "Canadian dollar",
  aud: "Australian dollar",
  nzd: "New Zealand dollar",
  chf: "Swiss franc",
  sek: "Swedish krona",
  nok: "Norwegian krone",
  dkk: "Danish krone",
  pln: "Polish złoty",
};

/** The pass's price, the event's currency and the donation goal (all in units of that currency). */
export function PricingSection({ form, hasSales, unsaved }: { form: UseFormReturn<SettingsFormInput, unknown, SettingsFormValues>; hasSales: boolean; unsaved: boolean }) {
  const currencyId = useId();
  // The price and currency are the owners' (the server refuses a change from any other role).
  const mayPrice = useCan("pricing");
  const { errors } = form.formState;
  const currency = form.watch("currency");
  const code = currency.toUpperCase();
  return (
    <AdminSection
      icon={<CoinsIcon />}
      title="Price & donations"
      text="What a pass costs, in which currency, and the goal of the fear meter."
      saves="Saved with Save Settings"
      unsaved={unsaved}
    >
      <div className="field">
        <label className="field-label" htmlFor={currencyId}>
          Currency
        </label>
        {mayPrice ? (
          <select id={currencyId} className="input admin-select" {...form.register("currency")}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()} — {CURRENCY_NAMES[c]}
              </option>
            ))}
          </select>
        ) : (
          // Shown, not offered: the form keeps the currency it was given, and saves it unchanged.
          <input id={currencyId} className="input is-locked" readOnly value={`${code} — ${CURRENCY_NAMES[currency]}`} />
        )}
        <p className="field-hint">
          {!mayPrice
            ? OWNER_ONLY
            : hasSales
              ? "Payments have been taken: amounts already paid keep their currency, and a change asks to confirm."
              : "Prices, donations and the meter are shown in it."}
        </p>
      </div>
      <FormField
        label={`Access price (${code})`}
        type="number"
        inputMode="decimal"
        step={0.01}
        readOnly={!mayPrice}
        className={mayPrice ? undefined : "is-locked"}
        hint={mayPrice ? `At least ${formatMoney(CURRENCY_MINIMUMS[currency], currency)} (the card network's minimum), at most ${formatMoney(100_000, currency)}.` : OWNER_ONLY}
        error={errors.accessPrice?.message}
        {...form.register("accessPrice", { valueAsNumber: true })}
      />
      <FormField
        label={`Donation goal (${code})`}
        type="number"
        inputMode="decimal"
        min={1}
        step={0.01}
        hint="For example 50 or 49.99."
        error={errors.donationGoal?.message}
        {...form.register("donationGoal", { valueAsNumber: true })}
      />
    </AdminSection>
  );
}
