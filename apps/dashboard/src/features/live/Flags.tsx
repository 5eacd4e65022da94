import { useId } from 'react';

/* Small inline flags for the language select (no image requests, crisp at any size). */

export function FlagGB({ size = 20 }: { size?: number }) {
  const clip = `flag-gb-${useId().replace(/:/g, '')}`;
  return (
    <svg
      width={size}
      height={(size * 3) / 5}
      viewBox="0 0 60 30"
      aria-hidden
      focusable="false"
      style={{ display: 'block', borderRadius: 2 }}
    >
      <clipPath id={clip}>
        <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
      </clipPath>
      <path d="M0,0 v30 h60 v-30 z" fill="#012169" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
      <path d="M0,0 L60,30 M60,0 L0,30" clipPath={`url(#${clip})`} stroke="#C8102E" strokeWidth="4" />
      <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth="10" />
      <path d="M30,0 v30 M0,15 h60" stroke="#C8102E" strokeWidth="6" />
    </svg>
  );
}

export function FlagPL({ size = 20 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={(size * 5) / 8}
      viewBox="0 0 16 10"
      aria-hidden
      focusable="false"
      style={{ display: 'block', borderRadius: 2, boxShadow: '0 0 0 1px rgba(0,0,0,0.15)' }}
    >
      <rect width="16" height="5" fill="#fff" />
      <rect y="5" width="16" height="5" fill="#DC143C" />
    </svg>
  );
}
