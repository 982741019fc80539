export * from "./workspaces";
export * from "./api-keys";
export * from "./domains";
export * from "./templates";
export * from "./messages";
export * from "./contacts";
export * from "./activity";
export * from "./inbox";
