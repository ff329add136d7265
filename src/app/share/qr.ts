import QRCode from 'qrcode';

/**
 * A QR code of `text` as an SVG document string. Error correction level M
 * (15 %) survives a smudged or slightly creased screen or print-out.
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The SVG as a data: URL for an <img>, which keeps the markup out of the DOM tree. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
