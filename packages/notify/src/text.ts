/**
 * The text of an SMS: providers put it into one template variable and bill per 70 characters, so
 * an alert goes as its title and the start of its content, at most `max` characters.
 */
export function smsText(title: string, content: string, max = 60): string {
  const full = content ? `${title}: ${content}` : title;
  const chars = [...full];
  return chars.length <= max ? full : `${chars.slice(0, max - 1).join('')}…`;
}
