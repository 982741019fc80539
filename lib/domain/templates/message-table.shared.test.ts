import { describe, expect, it } from "vitest";
import { checkedMessageTable, messageTableFile } from "./message-table.shared";

describe("message tables as translators' files", () => {
  it("keeps flat keys to ICU texts, a key named __proto__ included, and exports them sorted", () => {
    const table = checkedMessageTable(
      JSON.parse('{"z.last": "Z", "__proto__": "P", "a-b_c.d": "{n, plural, other {#}}"}'),
    );
    expect(Object.keys(table)).toEqual(["z.last", "__proto__", "a-b_c.d"]);
    expect(Object.getPrototypeOf(table)).toBe(Object.prototype);
    const file = messageTableFile({ id: "tpl_1", name: "Über Receipt!" }, { locale: "fr-CA", messages: table });
    expect(file.name).toBe("uber-receipt-fr-CA.json");
    expect(Object.keys(JSON.parse(file.text))).toEqual(["__proto__", "a-b_c.d", "z.last"]);
    expect(messageTableFile({ id: "tpl_1", name: "日本" }, { locale: "ja", messages: {} }).name).toBe("tpl_1-ja.json");
  });

  it("names the key at fault", () => {
    const fault = (value: unknown) => {
      try {
        checkedMessageTable(value);
      } catch (error) {
        return (error as { param: string }).param;
      }
      return null;
    };
    expect(fault("x")).toBe("messages");
    expect(fault({ "": "x" })).toBe('messages[""]');
    expect(fault({ "a b": "x" })).toBe('messages["a b"]');
    expect(fault({ a: 1 })).toBe('messages["a"]');
    expect(fault({ a: "{n, plural, one {x}}" })).toBe('messages["a"]');
    expect(fault({ a: "{unclosed" })).toBe('messages["a"]');
    expect(fault({ a: "fine {name}" })).toBeNull();
  });
});
