import { salesClosedReason, type ReadyItem, type ReadyToSell } from "../../contracts/ready-to-sell.ts";
import type { LivestreamSettings } from "../../contracts/settings.ts";
import type { StreamKind } from "../../contracts/stream.ts";

/** Each stream source as the checklist names it once chosen. */
const STREAM_KIND_LABELS: Record<StreamKind, string> = {
  ingest: "Built-in ingest: OBS publishes to this server",
  embed: "Embed link",
  mux: "Mux, signed playback",
  cloudflare: "Cloudflare Stream, signed playback",
  bunny: "Bunny Stream, signed playback",
  hls: "HLS relay of your origin",
};

/** What the checklist reads: the settings, how payments run, the stream source and the passes sold. */
export interface ReadyFacts {
  settings: LivestreamSettings;
  paymentMode: "demo" | "stripe";
  stream: { set: boolean; kind: StreamKind };
  passesSold: number;
}

/** The dashboard's "ready to sell" checklist: each thing a buyer meets before the first sale, and whether sales are open. */
export function readyToSell({ settings: s, paymentMode, stream, passesSold }: ReadyFacts): ReadyToSell {
  const organizerDone = s.organizerName !== "" && s.contactEmail !== "";
  const items: ReadyItem[] = [
    {
      key: "organizer",
      label: "Organiser and contact",
      done: organizerDone,
      detail: organizerDone
        ? `${s.organizerName} · ${s.contactEmail}`
        : `Set the organiser's ${[s.organizerName ? "" : "name", s.contactEmail ? "" : "contact e-mail"].filter(Boolean).join(" and ")} in Settings: every e-mail and the footer name them.`,
    },
    { key: "privacy", label: "Privacy policy", done: s.privacyUrl !== "", detail: s.privacyUrl || "Link your privacy policy in Settings." },
    { key: "terms", label: "Terms of service", done: s.termsUrl !== "", detail: s.termsUrl || "Link your terms of service in Settings." },
    {
      key: "payments",
      label: paymentMode === "stripe" ? "Payments live" : "Payments in demo mode",
      done: paymentMode === "stripe",
      detail:
        paymentMode === "stripe"
          ? "Card payments go through Stripe: real money is taken."
          : "Buyers pay with the demo test card and no money is taken. Start the server with Stripe keys to sell real passes.",
    },
    {
      key: "stream",
      label: "Stream source",
      done: stream.set,
      detail: stream.set ? STREAM_KIND_LABELS[stream.kind] : "Choose where the stream comes from on the Stream source card in Settings.",
    },
    {
      key: "testPurchase",
      label: "A test purchase",
      done: passesSold > 0,
      detail:
        passesSold > 0 ? `${passesSold} pass${passesSold === 1 ? "" : "es"} bought so far.` : "Buy a pass yourself: you get the code on screen and by e-mail, as a buyer does.",
    },
  ];
  const closedReason = salesClosedReason(paymentMode, s);
  return { items, paymentMode, salesOpen: closedReason === null, closedReason };
}
