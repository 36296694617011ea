/**
 * Provider request builders, provider profiles and MCP content conversion.
 *
 * <ul>
 *   <li>{@link dev.tether.llm.LlmRequest}: checks a {@link dev.tether.api.Conversation} against a
 *       {@link dev.tether.llm.ProviderProfile} (or fits its images when asked) and writes the
 *       request body of one of the {@link dev.tether.llm.Provider}s to a stream or a Jackson tree.
 *   <li>{@link dev.tether.llm.ImageRuleException}: the typed error naming the image, the profile and
 *       the {@link dev.tether.llm.ImageRule} it broke.
 *   <li>{@link dev.tether.llm.McpReadResult}: {@code tether_read} results as MCP content, with
 *       images as {@code {"_mcp_index": N}} stubs plus image items, and the inverse.
 *   <li>{@link dev.tether.llm.Attribution}: the {@code [Alice]: } prefix for group channels.
 * </ul>
 */
package dev.tether.llm;
