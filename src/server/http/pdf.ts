// The receipts' and invoices' PDF layout (pdfkit, loaded on first use): an A4 page with a header, headings, label and
// value rows (money right-aligned) and rules, in text the built-in fonts can print. Beneath every feature that prints
// one (manage/ for a booking's receipt and invoice, accounts/ for an account's monthly invoice).

/** The characters Windows-1252 has beyond Latin-1: pdfkit's built-in fonts are encoded so. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const LOOKALIKE: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h', Ŧ: 'T', ŧ: 't', '\u2212': '-' };
const inWinAnsi = (ch: string) => (ch.codePointAt(0)! >= 0x20 && ch.codePointAt(0)! <= 0xff && !(ch.codePointAt(0)! >= 0x7f && ch.codePointAt(0)! < 0xa0)) || WIN_ANSI_EXTRA.has(ch);

/**
 * Text as the built-in fonts can print it: a character they lack loses its accent (Ł as L, ą as a) or, when it has
 * no Latin form (李, an emoji), reads '?', rather than printing as a wrong glyph.
 */
export function printable(text: string): string {
  return [...text.normalize('NFC')].map((ch) => {
    if (inWinAnsi(ch)) return ch;
    if (LOOKALIKE[ch]) return LOOKALIKE[ch];
    const bare = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    return [...bare].every(inWinAnsi) && bare ? bare : '?';
  }).join('');
}

const NAVY = '#0f2a47';
const MUTED = '#5b6675';

/**
 * An A4 document with the receipts' layout: a header, headings, label and value rows (money right-aligned), rules.
 * `created` fixes the file's creation date (an issued invoice's date), so the same document is the same bytes.
 */
export async function pdfLayout(info: { Title: string; Author: string; Subject: string }, created?: Date) {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { ...info, ...(created ? { CreationDate: created } : {}) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const body = () => doc.font('Helvetica').fontSize(10).fillColor('#1b2430');

  const layout = {
    doc,
    /** The seller's name and lines, its VAT number if any, and the document's title. */
    header(name: string, lines: string[], vatNumber: string | null, title: string) {
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(18).text(printable(name));
      doc.font('Helvetica').fontSize(10).fillColor(MUTED);
      for (const line of lines) if (line) doc.text(printable(line));
      if (vatNumber) doc.text(printable(`VAT number: ${vatNumber}`));
      doc.moveDown(1.2);
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(16).text(printable(title));
      body();
    },
    heading(text: string) {
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(12).text(printable(text));
      doc.moveDown(0.2);
      body();
    },
    row(label: string, value: string, money = false, strong = false) {
      const y = doc.y;
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').text(printable(label), left, y, { width: width * 0.45 });
      const afterLabel = doc.y;
      doc.text(printable(value), left + width * 0.45, y, { width: width * 0.55, align: money ? 'right' : 'left' });
      doc.y = Math.max(afterLabel, doc.y) + 2;
      doc.x = left;
    },
    rule() {
      const left = doc.page.margins.left;
      doc.moveTo(left, doc.y).lineTo(doc.page.width - doc.page.margins.right, doc.y).lineWidth(0.5).strokeColor('#dde3ea').stroke();
      doc.moveDown(0.3);
    },
    paragraph(text: string) {
      doc.font('Helvetica-Bold').text(printable(text));
      body();
    },
    footer(text: string) {
      doc.fillColor(MUTED).fontSize(9).text(printable(text));
    },
    end(): Promise<Buffer> {
      doc.end();
      return done;
    },
  };
  return layout;
}
