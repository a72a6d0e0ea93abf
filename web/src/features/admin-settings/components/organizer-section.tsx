import type { UseFormReturn } from "react-hook-form";
import { TEXT_LIMITS } from "@contracts/text-limits";
import { SOCIAL_HOSTS, SOCIAL_NETWORKS } from "@contracts/settings";
import { AdminSection } from "@/components/admin/admin-section";
import { FormField } from "@/components/ui/form-field";
import { UsersIcon } from "@/components/ui/icons";
import type { SettingsFormInput, SettingsFormValues } from "../lib/settings-form";

const PLACEHOLDERS: Record<(typeof SOCIAL_NETWORKS)[number], string> = {
  instagram: "https://www.instagram.com/…",
  youtube: "https://www.youtube.com/@…",
  tiktok: "https://www.tiktok.com/@…",
  x: "https://x.com/…",
  discord: "https://discord.gg/…",
};

/** Who runs the event and where buyers reach them: the footer's links, the purchase e-mail, the device refusal. */
export function OrganizerSection({ form, unsaved }: { form: UseFormReturn<SettingsFormInput, unknown, SettingsFormValues>; unsaved: boolean }) {
  const { errors } = form.formState;
  const url = { type: "url", inputMode: "url", autoComplete: "off", spellCheck: false, maxLength: TEXT_LIMITS.address } as const;
  return (
    <AdminSection
      icon={<UsersIcon />}
      title="Organiser"
      text="Who runs the event and how buyers reach you. Selling passes needs terms and a privacy policy."
      saves="Saved with Save Settings"
      unsaved={unsaved}
    >
      <FormField
        label="Organiser name"
        autoComplete="organization"
        maxLength={TEXT_LIMITS.organizerName}
        placeholder="Night Owl Events Ltd"
        error={errors.organizerName?.message}
        {...form.register("organizerName")}
      />
      <FormField
        label="Contact e-mail"
        type="email"
        autoComplete="email"
        maxLength={TEXT_LIMITS.email}
        placeholder="help@example.com"
        hint="The footer's Contact link, the purchase e-mail and the message a buyer gets when their code is refused on another device."
        error={errors.contactEmail?.message}
        {...form.register("contactEmail")}
      />
      <FormField
        label="Privacy policy link"
        placeholder="https://…/privacy"
        hint="The footer's Privacy Policy link."
        error={errors.privacyUrl?.message}
        {...url}
        {...form.register("privacyUrl")}
      />
      <FormField
        label="Terms of service link"
        placeholder="https://…/terms"
        hint="The footer's Terms of Service link."
        error={errors.termsUrl?.message}
        {...url}
        {...form.register("termsUrl")}
      />
      <div className="settings-socials">
        {SOCIAL_NETWORKS.map((network) => (
          <FormField
            key={network}
            label={`${SOCIAL_HOSTS[network].label} link`}
            placeholder={PLACEHOLDERS[network]}
            error={errors.socialLinks?.[network]?.message}
            {...url}
            {...form.register(`socialLinks.${network}`)}
          />
        ))}
      </div>
      <p className="field-hint">Links left empty stay as plain, unlinked entries in the footer. Each opens in a new tab.</p>
    </AdminSection>
  );
}
