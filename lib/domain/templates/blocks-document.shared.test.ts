import { describe, expect, it } from "vitest";
import { blocksDocumentProblem, blocksToLiquidHtml, emptyBlocksDocument, type BlocksDocument } from "./blocks.shared";
import { BLOCK_TYPES, blockSummary, defaultBlock, PALETTE_BLOCK_TYPES } from "./blocks-catalog.shared";
import {
  childIds,
  duplicateBlock,
  findPlace,
  insertBlock,
  insertionPlace,
  listBlocks,
  moveBlock,
  moveBlockTo,
  removeBlock,
  setColumnsCount,
  updateBlock,
} from "./blocks-document.shared";
import { renderTemplate } from "./render.shared";

const order = (document: BlocksDocument) =>
  listBlocks(document).map((block) => `${"  ".repeat(block.depth)}${block.id}`);

/** The starter document plus a columns block (a text in its second column) and a container holding a divider. */
function nested(): BlocksDocument {
  let document = emptyBlocksDocument();
  document = insertBlock(document, "ColumnsContainer", { parentId: "root", index: 3 }).document;
  document = insertBlock(document, "Text", { parentId: "columns-1", column: 1, index: 0 }).document;
  document = insertBlock(document, "Container", { parentId: "root", index: 4 }).document;
  return insertBlock(document, "Divider", { parentId: "container-1", index: 0 }).document;
}

describe("block document operations", () => {
  it("insert a default block at a place in the root, a column or a container, with a fresh readable id", () => {
    const start = emptyBlocksDocument();
    const { document, id } = insertBlock(start, "Heading", { parentId: "root", index: 1 });
    expect(id).toBe("heading-1");
    expect(childIds(document, { parentId: "root" })).toEqual(["heading", "heading-1", "text", "button"]);
    expect(document[id]).toEqual(defaultBlock("Heading"));
    expect(childIds(start, { parentId: "root" })).toEqual(["heading", "text", "button"]);
    expect(start["heading-1"]).toBeUndefined();

    expect(order(nested())).toEqual([
      "heading",
      "text",
      "button",
      "columns-1",
      "  text-1",
      "container-1",
      "  divider-1",
    ]);
    expect(findPlace(nested(), "text-1")).toEqual({ parentId: "columns-1", column: 1, index: 0 });
    expect(listBlocks(nested()).find((block) => block.id === "text-1")).toMatchObject({
      depth: 1,
      siblings: 1,
      type: "Text",
    });
  });

  it("add from the palette after the selected block, into a selected container or column, else at the end", () => {
    const document = nested();
    expect(insertionPlace(document, null)).toEqual({ parentId: "root", index: 5 });
    expect(insertionPlace(document, { id: "root" })).toEqual({ parentId: "root", index: 5 });
    expect(insertionPlace(document, { id: "heading" })).toEqual({ parentId: "root", index: 1 });
    expect(insertionPlace(document, { id: "container-1" })).toEqual({ parentId: "container-1", index: 1 });
    expect(insertionPlace(document, { id: "columns-1", column: 0 })).toEqual({
      parentId: "columns-1",
      column: 0,
      index: 0,
    });
    expect(insertionPlace(document, { id: "text-1" })).toEqual({ parentId: "columns-1", column: 1, index: 1 });
    expect(insertionPlace(document, { id: "gone" })).toEqual({ parentId: "root", index: 5 });
  });

  it("remove a block with everything nested in it; the root stays", () => {
    const document = nested();
    const removed = removeBlock(document, "columns-1");
    expect(order(removed)).toEqual(["heading", "text", "button", "container-1", "  divider-1"]);
    expect(removed["text-1"]).toBeUndefined();
    expect(document["text-1"]).toBeDefined();
    expect(removeBlock(document, "root")).toBe(document);
    expect(order(removeBlock(document, "divider-1"))).toEqual([
      "heading",
      "text",
      "button",
      "columns-1",
      "  text-1",
      "container-1",
    ]);
  });

  it("move up and down among siblings, unchanged at the ends, and drag to another place", () => {
    const document = nested();
    expect(childIds(moveBlock(document, "text", -1), { parentId: "root" }).slice(0, 3)).toEqual([
      "text",
      "heading",
      "button",
    ]);
    expect(childIds(moveBlock(document, "heading", 1), { parentId: "root" }).slice(0, 3)).toEqual([
      "text",
      "heading",
      "button",
    ]);
    expect(moveBlock(document, "heading", -1)).toBe(document);
    expect(moveBlock(document, "text-1", 1)).toBe(document);

    const dragged = moveBlockTo(document, "button", { parentId: "columns-1", column: 0, index: 0 });
    expect(order(dragged)).toEqual([
      "heading",
      "text",
      "columns-1",
      "  button",
      "  text-1",
      "container-1",
      "  divider-1",
    ]);
    expect(childIds(moveBlockTo(document, "heading", { parentId: "root", index: 3 }), { parentId: "root" })).toEqual([
      "text",
      "button",
      "heading",
      "columns-1",
      "container-1",
    ]);
    // Into itself: refused.
    expect(moveBlockTo(document, "container-1", { parentId: "container-1", index: 0 })).toBe(document);
  });

  it("duplicate a block and its nested blocks with new ids, right after the original", () => {
    const { document, id } = duplicateBlock(nested(), "columns-1");
    expect(id).toBe("columns-2");
    expect(order(document)).toEqual([
      "heading",
      "text",
      "button",
      "columns-1",
      "  text-1",
      "columns-2",
      "  text-2",
      "container-1",
      "  divider-1",
    ]);
    const edited = updateBlock(document, "text-2", { props: { text: "Only the copy" } });
    expect((edited["text-1"].data.props as { text: string }).text).toBe("Write your text here.");
  });

  it("update props, style and the layout; null goes back to the default", () => {
    let document = updateBlock(emptyBlocksDocument(), "button", {
      props: { url: "{{ link }}", fullWidth: true },
      style: { textAlign: "center" },
    });
    expect(document.button.data.props).toEqual({ text: "Open", url: "{{ link }}", fullWidth: true });
    expect(document.button.data.style).toMatchObject({ textAlign: "center", padding: { top: 16 } });
    document = updateBlock(document, "button", { props: { fullWidth: null } });
    expect(document.button.data.props).toEqual({ text: "Open", url: "{{ link }}" });
    document = updateBlock(document, "root", { layout: { canvasColor: "#EEEEEE" } });
    expect(document.root.data).toMatchObject({ canvasColor: "#EEEEEE", childrenIds: ["heading", "text", "button"] });
    expect(updateBlock(document, "nope", { props: { a: 1 } })).toBe(document);
  });

  it("switch columns between three and two, keeping the third column's blocks", () => {
    let document = setColumnsCount(nested(), "columns-1", 3);
    document = insertBlock(document, "Button", { parentId: "columns-1", column: 2, index: 0 }).document;
    expect(order(document)).toContain("  button-1");
    document = setColumnsCount(document, "columns-1", 2);
    expect(childIds(document, { parentId: "columns-1", column: 1 })).toEqual(["text-1", "button-1"]);
    expect(childIds(document, { parentId: "columns-1", column: 2 })).toEqual([]);
    expect(blockSummary(document["columns-1"])).toBe("Columns (2)");
  });

  it("name blocks in the outline by type and text", () => {
    expect(blockSummary(emptyBlocksDocument().heading)).toBe('Heading: Hello {{ name | default: "there" }}');
    expect(blockSummary(defaultBlock("Html"))).toBe("HTML: Your HTML here.");
    expect(blockSummary(defaultBlock("Spacer"))).toBe("Spacer (16px)");
    expect(blockSummary({ type: "Text", data: { props: { text: "x".repeat(60) } } })).toHaveLength(46);
  });
});

describe("default blocks", () => {
  it("every block type compiles, passes the document check, and Liquid in them renders", () => {
    let document = emptyBlocksDocument();
    for (const type of BLOCK_TYPES) document = insertBlock(document, type, { parentId: "root", index: 99 }).document;
    document = insertBlock(document, "Text", { parentId: "columns-1", column: 0, index: 0 }).document;
    document = insertBlock(document, "Image", { parentId: "container-1", index: 0 }).document;
    document = updateBlock(document, "text-2", { props: { text: "Dear {{ user.name }}" } });
    document = updateBlock(document, "image-2", { props: { url: "https://cdn.test/{{ user.id }}.png" } });
    expect(blocksDocumentProblem(document)).toBeNull();
    const html = blocksToLiquidHtml(document);
    const rendered = renderTemplate(
      { subject: "s", bodyHtml: html, bodyText: null },
      { name: "Ada", url: "https://x.test", user: { name: "Bo", id: 7 } },
    );
    expect(rendered.bodyHtml).toContain("Dear Bo");
    expect(rendered.bodyHtml).toContain('src="https://cdn.test/7.png"');
    expect(rendered.bodyHtml).toContain("Your HTML here.");
    expect(PALETTE_BLOCK_TYPES).toHaveLength(9);
    for (const type of BLOCK_TYPES) {
      const alone: BlocksDocument = {
        root: { type: "EmailLayout", data: { childrenIds: ["only"] } },
        only: defaultBlock(type),
      };
      expect(blocksDocumentProblem(alone), type).toBeNull();
      expect(blocksToLiquidHtml(alone), type).toMatch(/^<!DOCTYPE html>/);
    }
  });
});
