/** A URL with its password replaced by `***`, for messages (Redis and model URLs may carry one). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = "***";
      return parsed.toString();
    }
  } catch {
    // Not a URL by itself (e.g. inside a model spec): the pattern below still applies.
  }
  return url.replace(/\/\/([^:/@\s]*):[^@/\s]*@/g, "//$1:***@");
}

/**
 * Removes the password of `url` from any text (e.g. a client's error message that quotes the
 * URL it was given), in plain and percent-encoded form.
 */
export function redactSecrets(text: string, url: string | undefined): string {
  if (!url) return text;
  let password = "";
  try {
    password = new URL(url).password;
  } catch {
    password = /\/\/[^:/@]*:([^@/]*)@/.exec(url)?.[1] ?? "";
  }
  let out = text.split(url).join(redactUrl(url));
  if (!password) return out;
  for (const form of new Set([password, safeDecode(password)])) out = out.split(form).join("***");
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
