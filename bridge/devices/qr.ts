import { renderSVG } from 'uqr';

/**
 * The pairing link as a QR code, drawn here as SVG (uqr, a port of Nayuki's QR generator), so the window shows an
 * image and carries no QR code of its own. Medium error correction and a quiet zone of four modules, as phone
 * cameras expect.
 */
export function qrSvg(text: string): string {
  return renderSVG(text, { ecc: 'M', border: 4, pixelSize: 8 });
}
