/** How Switchboard's MCP server names itself, to clients and in the OpenAPI document: no SDK needed to read it. */
export const MCP_SERVER_INFO = { name: "switchboard", version: "0.1.0" }
