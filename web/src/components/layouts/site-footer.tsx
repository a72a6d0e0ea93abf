import type { ComponentType } from "react";
import { BRAND } from "@/config/event";
import { DiscordIcon, InstagramIcon, TiktokIcon, XSocialIcon, YoutubeIcon } from "@/components/ui/icons";

// Placeholders until the operator has real profiles: anchors without a target.
const SOCIALS: { name: string; Icon: ComponentType }[] = [
  { name: "Instagram", Icon: InstagramIcon },
  { name: "YouTube", Icon: YoutubeIcon },
  { name: "TikTok", Icon: TiktokIcon },
  { name: "X", Icon: XSocialIcon },
  { name: "Discord", Icon: DiscordIcon },
];

const LEGAL = ["Privacy Policy", "Terms of Service", "Contact"];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <span className="site-footer-name">{BRAND}</span>
          <p className="site-footer-tagline">Watch if you dare.</p>
        </div>
        <ul className="site-socials" aria-label="Social media">
          {SOCIALS.map(({ name, Icon }) => (
            <li key={name}>
              <a className="site-social">
                <Icon />
                <span className="sr-only">{name}</span>
              </a>
            </li>
          ))}
        </ul>
        <ul className="site-legal">
          {LEGAL.map((label) => (
            <li key={label}>
              <a className="site-legal-link">{label}</a>
            </li>
          ))}
        </ul>
        <p className="site-copyright">
          © {new Date().getFullYear()} {BRAND}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
