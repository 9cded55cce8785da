import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Metadata, type Sharp } from 'sharp';

/** Real pixels (a gradient with some texture), so encoders have something to encode. */
export function picture(width: number, height: number, seed = 0): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width + seed;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = ((x ^ y) * 7 + seed * 13) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

// A valid selfie is at least 512 px on its short side (SELFIE_LIMITS.minShortSide).
export const jpeg = (width = 640, height = 512, seed = 0) => picture(width, height, seed).jpeg().toBuffer();
export const png = (width = 640, height = 512, seed = 0) => picture(width, height, seed).png().toBuffer();
export const gif = (width = 640, height = 512, seed = 0) => picture(width, height, seed).gif().toBuffer();
export const webp = (width = 640, height = 512, seed = 0) => picture(width, height, seed).webp().toBuffer();

/**
 * A plain black image: a few kilobytes however many pixels it has. A PNG's every pixel is
 * decoded; a JPEG is decoded already shrunk when it is resized, which keeps big ones cheap.
 */
export function blackImage(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#000000' } });
  return (format === 'png' ? image.png({ compressionLevel: 9, palette: true, colours: 2 }) : image.jpeg()).toBuffer();
}

/** A two-frame GIF of 640 × 512: red, then blue. */
export async function animatedGif(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 640, height: 512, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
    .gif()
    .toBuffer();
}

/** A JPEG with the camera's GPS position and "rotate 90° clockwise" (orientation 6) in its EXIF. */
export function jpegWithGpsAndOrientation(width: number, height: number): Promise<Buffer> {
  return picture(width, height)
    .jpeg()
    .withExif({
      IFD0: { Make: 'LeakyCam', Model: 'Model GPS' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** 51/1 as an EXIF rational in either byte order: the latitude written above. */
export function containsLatitude(exif: Buffer): boolean {
  return exif.includes(Buffer.from([0, 0, 0, 51, 0, 0, 0, 1])) || exif.includes(Buffer.from([51, 0, 0, 0, 1, 0, 0, 0]));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb's header: a valid PNG signature and IHDR (correct CRC) announcing
 * width × height RGB pixels, then a token IDAT. Decoding it would allocate width × height × 3 bytes.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's first bytes followed by `size` random bytes. */
export function jpegHeaderThenNoise(size: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size)]);
}

export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await jpeg(800, 600);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** Starts like a GIF, reads on as JavaScript: `GIF89a/*...*\/=1;alert(...)`. */
export const gifJavaScriptPolyglot = () =>
  Buffer.from('GIF89a/*\u0000\u0000\u0000\u0000*/=1;alert(document.cookie);//', 'latin1');

export const HTML_PAYLOAD = '<html><body><script>alert(document.cookie)</script></body></html>';

/** A valid JPEG with an HTML page appended after its end marker. */
export async function jpegWithHtml(): Promise<Buffer> {
  return Buffer.concat([await jpeg(640, 512), Buffer.from(HTML_PAYLOAD, 'latin1')]);
}

/** The bytes of a response, and what sharp reads in them. */
export async function decoded(response: Response): Promise<{ bytes: Buffer; metadata: Metadata }> {
  const bytes = Buffer.from(await response.arrayBuffer());
  return { bytes, metadata: await sharp(bytes).metadata() };
}
