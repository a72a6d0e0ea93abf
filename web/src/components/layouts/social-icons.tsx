import { Icon, type IconProps } from "@/components/ui/site-icons";

/* The organiser's social networks in the site's footer: loaded with the site's frame (app/site-pages.tsx). */

export const InstagramIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2" y="2" width="20" height="20" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <path d="M17.5 6.5h.01" />
  </Icon>
);

export const YoutubeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 17a24.1 24.1 0 0 1 0-10 2 2 0 0 1 1.4-1.4 49.6 49.6 0 0 1 16.2 0A2 2 0 0 1 21.5 7a24.1 24.1 0 0 1 0 10 2 2 0 0 1-1.4 1.4 49.6 49.6 0 0 1-16.2 0A2 2 0 0 1 2.5 17" />
    <path d="m10 15 5-3-5-3z" />
  </Icon>
);

export const XSocialIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4l16 16M20 4 4 20" strokeWidth="1.8" />
  </Icon>
);

export const TiktokIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 12a4 4 0 1 0 4 4V3c.5 2.5 2.5 4.5 5 5" />
  </Icon>
);

export const DiscordIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8.5 17c-1.5 1-3 1.5-4.5 1.5-.8-2.6-1-6.8 1-11C6.5 6.5 8 6 9.5 5.8l.6 1.2a14 14 0 0 1 3.8 0l.6-1.2c1.5.2 3 .7 4.5 1.7 2 4.2 1.8 8.4 1 11-1.5 0-3-.5-4.5-1.5" />
    <path d="M7.5 15.5c3 1.4 6 1.4 9 0" />
    <circle cx="9.5" cy="12" r="1" />
    <circle cx="14.5" cy="12" r="1" />
  </Icon>
);
