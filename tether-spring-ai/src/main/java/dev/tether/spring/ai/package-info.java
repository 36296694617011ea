/**
 * Spring AI and tether: {@link dev.tether.spring.ai.SpringAiMessages} maps Spring AI's
 * {@code Message}s and {@code Media} to and from tether's turns, and
 * {@link dev.tether.spring.ai.TetherChatMemoryRepository} is a {@code ChatMemoryRepository} that
 * keeps {@code Media} as content-addressed blobs ({@code Media.id} is the blob key), which Spring
 * AI's chat-memory auto-configuration uses in place of its in-memory repository when
 * {@code tether.chat-memory.dir} is set. Spring AI is an optional dependency. See docs/spring.md.
 */
package dev.tether.spring.ai;
