export const brandName = 'Sniplink';

/** Sets the document title to "{title} | Sniplink" (React 19 hoists <title> into <head>). */
export function PageTitle({ title }: { title: string }) {
  return <title>{`${title} | ${brandName}`}</title>;
}
