import type { Migration } from "../migrate.ts";

export const donationLineCurrency: Migration = {
  version: 11,
  name: "a donation line keeps its currency",
  // A donation's chat line shows its amount in the currency it was paid in, not the event's currency of
  // the day. Lines from before: the currency of the donation of that amount by that name nearest in time.
  sqlite: `
        ALTER TABLE chat_messages ADD COLUMN donation_currency TEXT;
        UPDATE chat_messages SET donation_currency = (SELECT p.currency FROM donations d JOIN payments p ON p.id = d.payment_id
            WHERE d.amount = chat_messages.donation_pence AND lower(d.username) = lower(chat_messages.username)
            ORDER BY ABS(d.created_at - chat_messages.created_at) LIMIT 1)
          WHERE type = 'donation';
      `,
  postgres: `
        ALTER TABLE chat_messages ADD COLUMN donation_currency TEXT;
        UPDATE chat_messages SET donation_currency = (SELECT p.currency FROM donations d JOIN payments p ON p.id = d.payment_id
            WHERE d.amount = chat_messages.donation_pence AND lower(d.username) = lower(CAST(chat_messages.username AS TEXT))
            ORDER BY ABS(d.created_at - chat_messages.created_at) LIMIT 1)
          WHERE type = 'donation';
      `,
};
