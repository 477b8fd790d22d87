// An ICO file from PNG images, one entry per size: Windows (Vista and later) reads PNG-compressed entries of
// any size, and picks the entry nearest to what the screen's scaling needs (a 16 px tray icon at 150 % takes 24).

/** @param {Array<{ size: number, png: Buffer }>} images  @returns {Buffer} */
export function icoFromPngs(images) {
  const sorted = [...images].sort((a, b) => a.size - b.size);
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(sorted.length, 4);
  let offset = 6 + 16 * sorted.length;
  const entries = sorted.map(({ size, png }) => {
    if (size < 1 || size > 256) throw new Error(`an ICO entry is 1 to 256 px, not ${size}`);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size === 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size === 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...sorted.map((i) => i.png)]);
}
