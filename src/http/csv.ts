/** RFC 4180 CSV; cells that a spreadsheet would run as a formula are prefixed with a quote. */
export function toCsv(header: string[], rows: (string | number | boolean | null)[][]): string {
  const cell = (value: string | number | boolean | null) => {
    let text = value === null ? "" : String(value);
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** A dated download: `<name>-YYYY-MM-DD.<extension>`, never cached. */
export function downloadResponse(name: string, extension: "csv" | "json", body: string): Response {
  return new Response(body, {
    headers: {
      "content-type": extension === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.${extension}"`,
      "cache-control": "no-store",
    },
  });
}

export function csvResponse(name: string, csv: string): Response {
  return downloadResponse(name, "csv", csv);
}
