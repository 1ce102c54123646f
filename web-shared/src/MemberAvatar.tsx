import { Avatar, type SxProps, type Theme } from '@mui/material';

/** The default member photo: an inline SVG silhouette, used when no photo is set. */
export function DefaultAvatarSvg({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-label="Default profile photo">
      <rect width="64" height="64" fill="#d5ecdc" />
      <circle cx="32" cy="25" r="11" fill="#4fa773" />
      <path d="M12 58c2.5-11 10.5-17 20-17s17.5 6 20 17" fill="#4fa773" />
    </svg>
  );
}

export function MemberAvatar({ src, size = 40, sx }: { src?: string | null; size?: number; sx?: SxProps<Theme> }) {
  return (
    <Avatar src={src || undefined} alt="Profile photo" sx={{ width: size, height: size, bgcolor: '#d5ecdc', ...sx }}>
      <DefaultAvatarSvg size={size} />
    </Avatar>
  );
}
