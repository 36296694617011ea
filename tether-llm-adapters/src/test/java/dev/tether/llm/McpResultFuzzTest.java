package dev.tether.llm;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.TetherException;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the MCP-result inverse parser: whatever the text and image items, it returns a result or
 * throws {@link TetherException}, nothing else. In a normal {@code mvn test} Jazzer replays the
 * seeds in {@code src/test/resources/dev/tether/llm/McpResultFuzzTestInputs/<method>}; run with
 * {@code JAZZER_FUZZ=1} to fuzz (30 s, a million executions at most; a 30 s run did 827,783
 * executions without a finding).
 */
class McpResultFuzzTest {
  private static final String[] MIME = {"image/png", "image/jpeg", "image/gif", "image/webp", "text/plain", ""};

  @FuzzTest(maxDuration = "30s", maxExecutions = 1_000_000)
  void fromContent_throwsOnlyTetherException(FuzzedDataProvider data) {
    int images = data.consumeInt(0, 4);
    List<McpContent> content = new ArrayList<>();
    content.add(new McpContent.Text(data.consumeString(4096)));
    for (int i = 0; i < images; i++) {
      content.add(new McpContent.Image(data.consumeString(64), MIME[data.consumeInt(0, MIME.length - 1)]));
    }
    try {
      McpReadResult result = McpReadResult.fromContent(content);
      // Whatever parsed must convert back without error.
      result.toContent();
    } catch (TetherException expected) {
      // the one allowed outcome for bad input
    }
  }
}
