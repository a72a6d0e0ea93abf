/** Font and image files imported from code become URLs of hashed files in the build. */
declare module "*.woff2" {
  const url: string;
  export default url;
}
declare module "*.jpg" {
  const url: string;
  export default url;
}
declare module "*.png" {
  const url: string;
  export default url;
}
declare module "*.svg" {
  const url: string;
  export default url;
}
/** A stylesheet built on its own (scripts/web-build-options.ts): its URL, to load with its screen (lib/stylesheets.ts). */
declare module "*.css?url" {
  const url: string;
  export default url;
}
