/**
 * The event's title and thumbnail before an admin sets them: the first settings row the migrations write,
 * and what the web app shows while the settings cannot be loaded.
 */
export const DEFAULT_EVENT_TITLE = "DREADCAST: The Night It Streams";
export const DEFAULT_THUMBNAIL_URL = "/assets/default-thumbnail.jpg";
/** The default thumbnail at 720 px wide, for phones; the banner offers both by width. */
export const DEFAULT_THUMBNAIL_SMALL_URL = "/assets/default-thumbnail-720.jpg";
export const DEFAULT_THUMBNAIL_SRCSET = `${DEFAULT_THUMBNAIL_SMALL_URL} 720w, ${DEFAULT_THUMBNAIL_URL} 1280w`;
/** How wide the landing page's banner is drawn: the page's width less its padding, up to 1120 px. */
export const BANNER_SIZES = "(max-width: 1120px) calc(100vw - 2rem), 1088px";
/** The element of the landing page's HTML that carries the public settings, so its first paint needs no request. */
export const INLINE_SETTINGS_ID = "dreadcast-settings";
