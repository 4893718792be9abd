import { describe, expect, it } from "vitest";
import { cleanTitle as cleanModelTitle } from "../src/pdf/llm/entries.js";
import { cleanTitle, stripLeaders } from "../src/pdf/structure/titles.js";

describe("dot leaders", () => {
  it("drops spaced, mixed and unspaced leaders with the page number after them", () => {
    expect(cleanTitle("1.1 Legalese . . . . . . . . . . . . 5")).toBe("1.1 Legalese");
    expect(cleanTitle("1.1 Legalese . . . . .")).toBe("1.1 Legalese");
    expect(cleanTitle("Scope ·····  iv")).toBe("Scope");
    expect(cleanTitle("Scope · · · · · 12")).toBe("Scope");
    expect(cleanTitle("Index ______ 112")).toBe("Index");
    expect(cleanTitle("Appendix …… A-3")).toBe("Appendix");
    expect(cleanTitle("Installing . .. . … . 17")).toBe("Installing");
    expect(cleanTitle("Errors - - - - - 9")).toBe("Errors");
    expect(cleanTitle("Overview\t23")).toBe("Overview");
    expect(cleanTitle("2.3 Limits.............. 41 . . . .")).toBe("2.3 Limits");
  });

  it("keeps a title's own numbers and punctuation", () => {
    expect(cleanTitle("Note 12")).toBe("Note 12");
    expect(cleanTitle("Item 7. Management")).toBe("Item 7. Management");
    expect(cleanTitle("Version 2.1.3")).toBe("Version 2.1.3");
    expect(cleanTitle("U.S. Operations")).toBe("U.S. Operations");
    expect(cleanTitle("Client-server - design")).toBe("Client-server - design");
  });

  it("leaves a long line of dots that does not end the title alone", () => {
    const long = `Title ${". ".repeat(50_000)}end`;
    expect(stripLeaders(long) === long).toBe(true);
    expect(stripLeaders("Note 12 ")).toBe("Note 12");
    expect(stripLeaders(`Title ${". ".repeat(50_000)}`)).toBe("Title");
  });

  it("cleans a model's titles the same way", () => {
    expect(cleanModelTitle("1.1 Legalese . . . . . 5")).toBe("1.1 Legalese");
  });
});
