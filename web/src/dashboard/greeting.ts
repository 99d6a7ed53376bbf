const welcomeBack = (name: string) => `Welcome back, ${name}!`;

const dailyGreetings: readonly ((name: string) => string)[] = [
  welcomeBack,
  (name) => `Good to see you, ${name}!`,
  (name) => `Hello again, ${name}!`,
  (name) => `Ready to share something, ${name}?`,
  (name) => `Let's make some links, ${name}!`,
  (name) => `Great to have you back, ${name}!`,
  (name) => `Hi ${name}, your links are waiting.`,
  (name) => `What are we shortening today, ${name}?`,
  (name) => `Nice to see you, ${name}!`,
  (name) => `Back at it, ${name}!`,
];

export const greetingCount = dailyGreetings.length;

/** A small string hash (FNV-1a, 32 bits): the same user on the same day always gets the same number. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The local calendar day as YYYY-MM-DD. */
function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Which of the daily greetings a user sees on a day: stable for the day, changing from day to day. */
export function dailyGreetingIndex(userId: string, today: Date): number {
  return fnv1a(`${userId}:${localDay(today)}`) % dailyGreetings.length;
}

/** The dashboard's greeting: a welcome to Sniplink the first time, else the phrase of the day. */
export function greetingFor(
  { userId, name, firstVisit }: { userId: string; name: string; firstVisit: boolean },
  today: Date,
): string {
  if (firstVisit) return `Welcome to Sniplink, ${name}!`;
  const phrase = dailyGreetings[dailyGreetingIndex(userId, today)] ?? welcomeBack;
  return phrase(name);
}
