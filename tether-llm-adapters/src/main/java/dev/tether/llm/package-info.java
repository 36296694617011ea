/** Provider request builders, provider profiles and MCP content conversion. */
package dev.tether.llm;
