import { parseHttpUrl } from '@furnace/contracts';

/*
 * Camera stream links of a research → what the live view embeds. Staff paste links as they copy
 * them from the browser; the live view needs an embeddable, autoplaying source.
 */

export type Embed =
  | { readonly kind: 'iframe'; readonly src: string }
  | { readonly kind: 'hls'; readonly src: string }
  | { readonly kind: 'invalid' };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
/** Path forms that carry the video id as their second segment: /live/ID, /shorts/ID, /embed/ID. */
const YOUTUBE_ID_PATHS = new Set(['live', 'shorts', 'embed']);

/** The video id of a YouTube link, or null when the link is not a YouTube video link. */
function youtubeVideoId(url: URL): string | null {
  const host = url.hostname.toLowerCase();
  let id: string | null | undefined;
  if (host === 'youtu.be' || host === 'www.youtu.be') {
    id = url.pathname.split('/')[1];
  } else if (YOUTUBE_HOSTS.has(host)) {
    const [, first, second] = url.pathname.split('/');
    if (first === 'watch') id = url.searchParams.get('v');
    else if (first !== undefined && YOUTUBE_ID_PATHS.has(first)) id = second;
  }
  return id != null && YOUTUBE_ID.test(id) ? id : null;
}

/**
 * What the live view embeds for a stream link:
 * - a YouTube video or live link → the embed player, autoplaying muted (browsers block sound
 *   autoplay); everything but the video id is dropped (timestamps, share tracking `si`, playlists);
 * - an HLS playlist (path ends in `.m3u8`, any query) on https: → `hls`, played with hls.js;
 * - any other https: link → an iframe of the link itself (a camera's own web page);
 * - anything else (plain http: — the page's Content-Security-Policy allows https: frames and media
 *   only —, javascript:, data:, ftp:, text) → invalid, never rendered.
 */
export function toEmbed(link: string): Embed {
  const url = parseHttpUrl(link);
  if (url === null) return { kind: 'invalid' };
  const videoId = youtubeVideoId(url);
  if (videoId !== null) {
    return { kind: 'iframe', src: `https://www.youtube.com/embed/${videoId}?autoplay=1&mute=1` };
  }
  if (url.protocol !== 'https:') return { kind: 'invalid' };
  if (url.pathname.toLowerCase().endsWith('.m3u8')) return { kind: 'hls', src: url.href };
  return { kind: 'iframe', src: url.href };
}
