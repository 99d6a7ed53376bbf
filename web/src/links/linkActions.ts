import { toast } from '../components/toast';

/** A 300 px black-on-white PNG with a 2-module margin, made in the browser and saved as {shortCode}.png. */
export async function downloadQrCode(shortUrl: string, shortCode: string): Promise<void> {
  try {
    const { toDataURL } = await import('qrcode');
    const dataUrl = await toDataURL(shortUrl, {
      type: 'image/png',
      width: 300,
      margin: 2,
      color: { dark: '#000000', light: '#ffffff' },
    });
    const anchor = document.createElement('a');
    anchor.href = dataUrl;
    anchor.download = `${shortCode}.png`;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    toast.success('QR code downloaded successfully!', `${shortCode}.png`);
  } catch {
    toast.error('Error', 'Failed to generate QR code');
  }
}

/** "sniplink.example/s/abc1234": the short URL as shown, without its scheme. */
export const shortUrlText = (shortUrl: string): string => shortUrl.replace(/^https?:\/\//, '');
