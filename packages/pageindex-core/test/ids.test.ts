import { describe, expect, it } from "vitest";
import { toDocId } from "../src/index.js";

describe("toDocId keeps distinct names distinct", () => {
  it("adds a hash when non-ASCII letters are dropped, keeping the readable part", () => {
    const ids = ["日本語.pdf", "中文.pdf", "Отчёт.pdf"].map(toDocId);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^doc-[0-9a-f]{8}\.pdf$/);
    expect(toDocId("Report 日本.pdf")).toMatch(/^Report-[0-9a-f]{8}\.pdf$/);
    expect(toDocId("Report 日本.pdf")).not.toBe(toDocId("Report 中国.pdf"));
  });

  it("keeps a hidden file's name apart from the same name without the dot", () => {
    expect(toDocId("env")).toBe("env");
    expect(toDocId(".env")).toMatch(/^env-[0-9a-f]{8}$/);
    expect(toDocId(".env.local")).toMatch(/^env-[0-9a-f]{8}\.local$/);
  });

  it("gives canonically equivalent names (NFC as typed, NFD as macOS lists them) one id", () => {
    for (const name of ["보고서.pdf", "Отчёт.pdf", ".café"]) {
      expect(toDocId(name.normalize("NFD"))).toBe(toDocId(name.normalize("NFC")));
    }
    expect(toDocId("Отчёт.pdf")).not.toBe(toDocId("Отчет.pdf"));
  });

  it("hashes names left empty, distinctly", () => {
    expect(toDocId("..")).toMatch(/^doc-[0-9a-f]{8}$/);
    expect(toDocId("日日")).not.toBe(toDocId("月月"));
  });

  it("leaves safe ASCII names unchanged and depends on the base name only", () => {
    for (const name of ["acme-annual-report-2025.pdf", "ops-manual.md", "report.v2_final.pdf"]) {
      expect(toDocId(name)).toBe(name);
      expect(toDocId(`/data/in/${name}`)).toBe(name);
    }
    expect(toDocId("dir1/日本語.pdf")).toBe(toDocId("dir2\\日本語.pdf"));
  });

  it("shortens long names with a hash, keeping the extension", () => {
    const a = toDocId(`${"a".repeat(200)}1.pdf`);
    const b = toDocId(`${"a".repeat(200)}2.pdf`);
    expect(a).not.toBe(b);
    expect(a).toHaveLength(120);
    expect(a).toMatch(/^a+-[0-9a-f]{8}\.pdf$/);
  });
});
