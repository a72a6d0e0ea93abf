/** hls.js ships no types for its light build (no alternate audio, subtitles or DRM), which has the same API. */
declare module "hls.js/light" {
  import Hls from "hls.js";
  export default Hls;
}
