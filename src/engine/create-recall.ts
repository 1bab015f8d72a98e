import { Recall } from "../memory/recall/recall.js";
import type { Embedder } from "../memory/recall/vectors.js";

/**
 * A person's recall, with the model server's embeddings when OPENAI_EMBEDDING_MODEL names a model.
 * Apart from the engine's wiring, so the operator CLI can have one without loading the engine.
 */
export function createRecall(embedder: Embedder | undefined, onError: (message: string, error: unknown) => void): Recall {
  return new Recall({ embedder, onError });
}
