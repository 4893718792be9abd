/** Weight and slant of a font, guessed from its PostScript name. */
export interface FontStyle {
  bold: boolean;
  italic: boolean;
}

// Style words after the family name ("Arial-BoldMT", "FranklinGothicLTPro-DmCm", "Arial,Bold",
// "NimbusRomNo9L-Medi") and the TeX names whose weight is in the family (CMBX = bold extended).
const BOLD_WORD =
  /^(bold|bd|black|blk|heavy|hv|semibold|sb|demi|demibold|dm|medium|md|medi|extrabold|ultrabold|ultra|xbd)$/i;
const ITALIC_WORD = /^(italic|it|ital|ita|oblique|obl|slanted|sl)$/i;
const BOLD_ANYWHERE = /bold|black|heavy|demi/i;
const ITALIC_ANYWHERE = /italic|oblique/i;

/** Splits "BoldItalicMT" / "DmCm" / "ReguItal" into style words. */
function styleWords(part: string): string[] {
  return part.split(/(?=[A-Z][a-z])|[^A-Za-z]+/).filter((w) => w.length > 0);
}

/** Guesses bold/italic from a font name such as `AAAMYG+TimesNewRoman-Bold`. */
export function fontStyleFromName(name: string | undefined): FontStyle {
  if (!name) return { bold: false, italic: false };
  const base = name.replace(/^[A-Z]{6}\+/, "");
  if (/^CM(BX|B)\d/i.test(base)) return { bold: true, italic: false };
  if (/^CM(TI|SL|MI)\d/i.test(base)) return { bold: false, italic: true };
  const cut = Math.max(base.lastIndexOf("-"), base.lastIndexOf(","));
  const words = cut >= 0 ? styleWords(base.slice(cut + 1)) : [];
  return {
    bold: words.some((w) => BOLD_WORD.test(w)) || BOLD_ANYWHERE.test(base),
    italic: words.some((w) => ITALIC_WORD.test(w)) || ITALIC_ANYWHERE.test(base),
  };
}
