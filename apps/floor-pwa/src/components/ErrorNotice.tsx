/** A failure said in words, announced to screen readers; nothing when there is none. */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="notice notice--error" role="alert">
      {message}
    </p>
  );
}
