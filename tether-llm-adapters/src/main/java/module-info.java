/**
 * Provider requests from tether conversations: Claude, OpenAI Chat, OpenAI Responses, Ollama and
 * Gemini; provider profiles with their image rules; MCP content for {@code tether_read}.
 */
module dev.tether.llm {
  requires transitive dev.tether.api;
  requires dev.tether.images;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  // Optional image fitting (ImageFitter) decodes and re-encodes with ImageIO.
  requires java.desktop;

  exports dev.tether.llm;
}
