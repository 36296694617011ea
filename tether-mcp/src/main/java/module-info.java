/**
 * The host agent's MCP tools ({@code tether_send}, {@code tether_read}, media and attachments) on
 * the official MCP Java SDK, over any {@code TetherClient}.
 */
module dev.tether.mcp {
  requires transitive dev.tether.client;
  requires transitive dev.tether.images;
  requires transitive dev.tether.media;
  requires dev.tether.llm;
  // The SDK's types are in the API (TetherMcpServer.start, tools(), jsonMapper()); its module
  // names are legal from 2.1.0 (2.0 declared 'io.modelcontextprotocol.sdk.mcp-core').
  requires transitive io.modelcontextprotocol.sdk.mcp.core;
  requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
  requires reactor.core;
  requires org.reactivestreams;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  // MCP over HTTP: the SDK's servlet transport in Jetty's ee10 servlet container (McpHttpEndpoint.handler()).
  requires transitive org.eclipse.jetty.server;
  requires org.eclipse.jetty.ee10.servlet;
  requires jakarta.servlet;

  exports dev.tether.mcp;
}
