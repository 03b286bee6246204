// The operator's mark, as the site bar draws it (no logo setting exists; SPEC 3 'Setting keys read').
export function BrandMark({ className = 'brand-mark' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#e0a526" />
      <path d="M7 19l2-6a3 3 0 013-2h8a3 3 0 013 2l2 6v4H7z" fill="#0f2a47" />
    </svg>
  );
}
