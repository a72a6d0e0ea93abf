/**
 * `Range: bytes=…` as players and download managers send it: the first range of the header, clamped to the
 * size; "unsatisfiable" for one outside it (416); null for none (the whole file).
 */
export function parseByteRange(range: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = range ? /bytes=(\d*)-(\d*)/.exec(range) : null;
  if (!match) return null;
  let start: number;
  let end: number;
  if (match[1]) {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  } else if (match[2]) {
    // A suffix: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    return "unsatisfiable";
  }
  if (start < 0 || start >= size || start > end) return "unsatisfiable";
  return { start, end };
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
