/**
 * LangChain4j and tether: {@link dev.tether.langchain4j.LangChain4jMessages} maps LangChain4j's
 * {@code ChatMessage}s to and from tether's turns and frames, and
 * {@link dev.tether.langchain4j.TetherChatMemoryStore} is a {@code ChatMemoryStore} that keeps each
 * image once, as a content-addressed blob. LangChain4j core is an optional dependency: the
 * application brings it. See docs/spring.md.
 */
package dev.tether.langchain4j;
