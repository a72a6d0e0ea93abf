/*
 * What both public first screens draw, the landing page and the stream screen alike: the event's settings as
 * the server wrote them into the page, the countdown to its start, and the client they are asked for again
 * with. Imported here (by main.tsx) for that alone, so they are part of the app's entry: both screens are
 * split off it, and the bundler would otherwise give each mix of screens that share a module a small file of
 * its own, which each first load then waits for one by one.
 */
import "@/lib/api-client";
import "@/lib/livestream-settings";
import "@/components/ui/countdown";
