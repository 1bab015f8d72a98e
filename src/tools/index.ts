export { executeTool, newTurnState, type MemoryChange, type ToolContext, type TurnState } from "./execute-tool.js";
export { memoryToolDefinitions, toolSchemas, TOOL_NAMES, type ToolName } from "./memory-tools.js";
