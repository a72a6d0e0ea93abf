import type { ComponentType } from "react";
import type { OrganizerDetails, SocialNetwork } from "@contracts/settings";
import { BRAND } from "@/config/event";
import { DiscordIcon, InstagramIcon, TiktokIcon, XSocialIcon, YoutubeIcon } from "@/components/layouts/social-icons";
import { useLivestreamSettings } from "@/lib/livestream-settings";

const SOCIALS: { network: SocialNetwork; name: string; Icon: ComponentType }[] = [
  { network: "instagram", name: "Instagram", Icon: InstagramIcon },
  { network: "youtube", name: "YouTube", Icon: YoutubeIcon },
  { network: "tiktok", name: "TikTok", Icon: TiktokIcon },
  { network: "x", name: "X", Icon: XSocialIcon },
  { network: "discord", name: "Discord", Icon: DiscordIcon },
];

/** The legal links and where each goes once the organiser has set it. */
const LEGAL: { label: string; href: (o: OrganizerDetails) => string }[] = [
  { label: "Privacy Policy", href: (o) => o.privacyUrl },
  { label: "Terms of Service", href: (o) => o.termsUrl },
  { label: "Contact", href: (o) => (o.contactEmail ? `mailto:${o.contactEmail}` : "") },
];

/** Where a set link opens: a page in a new tab that cannot reach back into this one; mail in the mail app. */
const linkProps = (href: string) => (href.startsWith("mailto:") ? { href } : { href, target: "_blank", rel: "noopener" });

/**
 * The networks the footer shows: the organiser's own, once they have set any; until then every network's
 * icon as a placeholder without a link.
 */
function shownSocials(organizer: OrganizerDetails | undefined) {
  const own = SOCIALS.filter(({ network }) => organizer?.socialLinks[network]);
  return own.length > 0 ? own : SOCIALS;
}

/** The shell's footer: the organiser's profiles, legal pages and contact, each an anchor without a link until the admin sets it. */
export function SiteFooter() {
  const organizer = useLivestreamSettings().data?.organizer;
  const owner = organizer?.organizerName || BRAND;
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <span className="site-footer-name">{BRAND}</span>
          <p className="site-footer-tagline">Watch if you dare.</p>
        </div>
        <ul className="site-socials" aria-label="Social media">
          {shownSocials(organizer).map(({ network, name, Icon }) => {
            const href = organizer?.socialLinks[network];
            return (
              <li key={name}>
                <a className="site-social" {...(href ? linkProps(href) : {})}>
                  <Icon />
                  <span className="sr-only">{href ? `${name} (opens in a new tab)` : name}</span>
                </a>
              </li>
            );
          })}
        </ul>
        <ul className="site-legal">
          {LEGAL.map(({ label, href }) => {
            const target = organizer ? href(organizer) : "";
            return (
              <li key={label}>
                <a className="site-legal-link" {...(target ? linkProps(target) : {})}>
                  {label}
                </a>
              </li>
            );
          })}
        </ul>
        {organizer?.contactEmail ? (
          <p className="site-footer-contact">
            Questions about your pass? <a href={`mailto:${organizer.contactEmail}`}>{organizer.contactEmail}</a>
          </p>
        ) : null}
        <p className="site-copyright">
          © {new Date().getFullYear()} {owner}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
