/**
 * Small generated files of real formats for the upload requests: a valid PNG (zlib-compressed
 * pixels), a JFIF JPEG with an EXIF camera tag, a one-page PDF, a CSV export and a DOCX-like zip
 * (stored entries, real CRCs). Seeded, so the bytes repeat run to run.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Random } from '../random.ts';
import { email, fullName, price, products, sentence } from './text.ts';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function png(r: Random): Buffer {
  const w = r.int(8, 48), h = r.int(8, 48);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2; // 8-bit RGB
  const rows: Buffer[] = [];
  const base = r.bytes(3);
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = (base[c]! + x * 3 + y * 5 + r.int(0, 12)) & 0xff;
    rows.push(row);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

export function jpeg(r: Random): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]);
  const make = Buffer.from(`Exif\0\0MM\0*${r.pick(['Canon EOS R6', 'iPhone 15 Pro', 'NIKON Z 6_2', 'Pixel 8'])}\0`, 'latin1');
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (make.length + 2) >> 8, (make.length + 2) & 0xff]), make]);
  // Entropy-coded data: random bytes with 0xFF stuffed as JPEG requires.
  const scan = r.bytes(r.int(800, 6000));
  const stuffed: number[] = [];
  for (const b of scan) { stuffed.push(b); if (b === 0xff) stuffed.push(0); }
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, app1, Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]), Buffer.from(stuffed), Buffer.from([0xff, 0xd9])]);
}

export function pdf(r: Random): Buffer {
  const text = sentence(r).replace(/[()\\]/g, ' ').replace(/[^\x20-\x7e]/g, '?');
  const stream = `BT /F1 14 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => { offsets.push(Buffer.byteLength(out, 'latin1')); out += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export function csv(r: Random): Buffer {
  const rows = ['id,name,email,product,price,ordered_at,note'];
  for (let i = 0; i < r.int(5, 40); i++) {
    const note = sentence(r).replaceAll('"', '""');
    rows.push(`${i + 1},"${fullName(r)}",${email(r)},"${r.pick(products).replaceAll('"', '""')}",${price(r).toFixed(2)},2024-0${r.int(1, 9)}-1${r.int(0, 9)},"${note}"`);
  }
  return Buffer.from(rows.join('\r\n') + '\r\n', 'utf8');
}

/** A zip with stored (uncompressed) entries and a central directory, shaped like a .docx. */
export function docx(r: Random): Buffer {
  const entries: [string, Buffer][] = [
    ['[Content_Types].xml', Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')],
    ['word/document.xml', Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${sentence(r).replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</w:t></w:r></w:p></w:body></w:document>`, 'utf8')],
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt32LE(crc, 14); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt32LE(crc, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(n.length, 28); central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10); end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export type FileKind = 'png' | 'jpeg' | 'pdf' | 'csv' | 'docx';
export const fileTypes: Record<FileKind, { make: (r: Random) => Buffer; mime: string; ext: string }> = {
  png: { make: png, mime: 'image/png', ext: 'png' },
  jpeg: { make: jpeg, mime: 'image/jpeg', ext: 'jpg' },
  pdf: { make: pdf, mime: 'application/pdf', ext: 'pdf' },
  csv: { make: csv, mime: 'text/csv', ext: 'csv' },
  docx: { make: docx, mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' },
};

export function fileName(r: Random, ext: string): string {
  return `${r.pick(['IMG_', 'scan ', 'Rechnung_', 'report-', 'photo (', 'résumé_', 'export_', 'Screenshot 2024-05-0'])}${r.int(1, 9999)}${r.chance(0.2) ? ')' : ''}.${ext}`;
}
