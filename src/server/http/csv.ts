// CSV for the accounts (RFC 4180): a header row, CRLF line ends, fields quoted when they hold a comma, quote or line
// break, and a UTF-8 byte order mark so that Excel reads £ and accents right. A field a spreadsheet would run as a
// formula (starting =, +, -, @, tab or CR) is written with a leading apostrophe: an address typed on the website must
// not become a formula in the office's spreadsheet.
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: Record<string, unknown>[], columns: string[] = Object.keys(rows[0] ?? {})): string {
  const lines = [columns.map(csvField).join(','), ...rows.map((r) => columns.map((k) => csvField(r[k])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
