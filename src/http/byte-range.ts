/** One range of RFC 9110 §14.1.2: `first-last`, `first-` or `-suffix`, digits only. */
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * `Range: bytes=…` (RFC 9110 §14.2), read strictly: one range of the `bytes` unit, clamped to the size; or
 * "unsatisfiable" (416) when it starts past the end. A header of another unit, a malformed one, or one of
 * several ranges is ignored (null: the whole file, 200), as a server may; no part of it is guessed at.
 */
export function parseByteRange(range: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const specifier = range?.trim() ?? "";
  const equals = specifier.indexOf("=");
  if (equals < 0 || specifier.slice(0, equals).toLowerCase() !== "bytes") return null;
  // A list (§5.6.1): elements apart by commas and optional white space, empty ones allowed.
  const specs = specifier
    .slice(equals + 1)
    .split(",")
    .map((spec) => spec.replace(/^[ \t]+|[ \t]+$/g, ""))
    .filter((spec) => spec !== "");
  if (specs.length !== 1) return null;
  const match = RANGE_SPEC.exec(specs[0]!);
  if (!match) return null;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) {
    // The last N bytes; none of an empty file, nor zero of any.
    const length = Number(suffix);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}

/**
 * A file held in memory as a Response, honouring a `Range: bytes=…` request as players send for byte-range
 * playlists: the part asked for as a 206, 416 for a range outside the file, the whole file otherwise.
 * `headers` are the whole file's (its type, caching, the app's security headers).
 */
export function blobResponse(blob: Blob, headers: Headers, range: string | null): Response {
  const size = blob.size;
  const wanted = parseByteRange(range, size);
  if (wanted === null) return new Response(blob, { headers });
  const part = new Headers(headers);
  if (wanted === "unsatisfiable") {
    part.set("content-range", `bytes */${size}`);
    return new Response(null, { status: 416, headers: part });
  }
  part.set("content-range", `bytes ${wanted.start}-${wanted.end}/${size}`);
  part.set("content-length", String(wanted.end - wanted.start + 1));
  return new Response(blob.slice(wanted.start, wanted.end + 1, blob.type), { status: 206, headers: part });
}
