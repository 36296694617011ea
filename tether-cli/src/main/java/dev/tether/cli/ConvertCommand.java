package dev.tether.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Conversation;
import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.Part;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import dev.tether.api.Turn;
import dev.tether.images.FrameValidator;
import dev.tether.llm.ImageRuleException;
import dev.tether.llm.LlmRequest;
import dev.tether.llm.McpContent;
import dev.tether.llm.McpReadResult;
import dev.tether.llm.ProviderProfile;
import dev.tether.llm.RequestOptions;
import dev.tether.server.WorkspaceBlobs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tether convert --to PROVIDER FILE|-}: prints (on stdout) the request body a provider
 * would receive for the frame, built by the adapters, or for {@code mcp} the content items
 * {@code tether_read} would return.
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
    description = {"Print what a provider would receive for a frame.",
        "The frame is a user.message, assistant.done or assistant.message.",
        "Exit 1 with the error code on stderr when the frame is invalid or breaks the provider's image rules."})
final class ConvertCommand implements Callable<Integer> {
  /** The targets, by their command-line names. */
  enum Target {
    claude, openai_chat, openai_responses, ollama, gemini, mcp;

    /**
     * The model a request names unless {@code --model} says otherwise: the demo agent's default for
     * the provider; none for Gemini, whose model is part of the URL, and for MCP content.
     */
    String defaultModel() {
      return switch (this) {
        case claude -> ModelReplier.Kind.CLAUDE.defaultModel;
        case openai_chat, openai_responses -> ModelReplier.Kind.OPENAI.defaultModel;
        case ollama -> ModelReplier.Kind.OLLAMA.defaultModel;
        case gemini, mcp -> null;
      };
    }

    static Target parse(String name) {
      try {
        return valueOf(name.replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--to must be one of claude, openai-chat, openai-responses, ollama, gemini, mcp but was '" + name + "'");
      }
    }
  }

  @Option(names = "--to", required = true, paramLabel = "PROVIDER",
      description = "claude, openai-chat, openai-responses, ollama, gemini or mcp.")
  String to;

  @Option(names = "--model", paramLabel = "NAME", description = {"The model the request names. Default: claude-sonnet-4-5 (claude),"
      + " gpt-4o-mini (openai-chat, openai-responses), llama3.2-vision (ollama); Gemini names its model in the URL, not the body."})
  String model;

  @Option(names = "--fit", description = "Downscale or re-encode images that break the provider's rules instead of failing.")
  boolean fit;

  @Parameters(index = "0", paramLabel = "FILE|-", description = "The frame; - reads standard input.")
  String file;

  @Option(names = "--workspace", paramLabel = "DIR",
      description = "Resolve images that are blob refs from DIR/.aegis/blobs (an instance's workspace), checking each blob.")
  Path workspace;

  @Override
  public Integer call() throws IOException {
    Target target;
    try {
      target = Target.parse(to);
    } catch (IllegalArgumentException e) {
      System.err.println("tether convert: " + e.getMessage());
      return 2;
    }
    Frame frame;
    try (InputStream in = Inputs.open(file)) {
      frame = FrameValidator.standard().read(in);
      if (ImageRefs.hasRefs(frame)) {
        if (workspace == null) {
          System.err.println("tether convert: the frame's images are blob refs; pass --workspace DIR (the instance's workspace) to read them");
          return 2;
        }
        frame = ImageRefs.inline(frame, WorkspaceBlobs.reader(workspace, FrameValidator.standard().limits()));
      }
    } catch (TetherException e) {
      System.err.println(Inputs.describe(e));
      return ValidateCommand.INVALID;
    } catch (NoSuchFileException e) {
      System.err.println("tether convert: no such file: " + e.getFile());
      return ValidateCommand.UNREADABLE;
    }
    try {
      byte[] out = convert(frame, target, model, fit);
      OutputStream stdout = System.out;
      stdout.write(out);
      stdout.write('\n');
      stdout.flush();
      return 0;
    } catch (ImageRuleException e) {
      System.err.println("tether convert: " + e.getMessage());
      return ValidateCommand.INVALID;
    } catch (IllegalArgumentException e) {
      System.err.println("tether convert: " + e.getMessage());
      return ValidateCommand.INVALID;
    }
  }

  /** The converted form of a validated frame, as compact JSON. */
  static byte[] convert(Frame frame, Target target, String model, boolean fit) throws IOException {
    if (target == Target.mcp) {
      return mcpJson(new McpReadResult(List.of(frame), frame.seq(), false).toContent());
    }
    ProviderProfile profile = switch (target) {
      case claude -> ProviderProfile.anthropic();
      case openai_chat -> ProviderProfile.openAiChat();
      case openai_responses -> ProviderProfile.openAiResponses();
      case ollama -> ProviderProfile.ollama();
      case gemini -> ProviderProfile.gemini();
      case mcp -> throw new AssertionError();
    };
    RequestOptions options = RequestOptions.defaults().withFitImages(fit);
    String named = model != null ? model : target.defaultModel();
    if (named != null) {
      options = options.withModel(named);
    }
    return LlmRequest.prepare(profile, conversation(frame), options).toByteArray();
  }

  /** One turn from the frame: a user turn for {@code user.message}, an assistant turn for replies. */
  static Conversation conversation(Frame frame) {
    Payload p = frame.payloadView();
    List<Part> parts = new ArrayList<>();
    p.images().forEach(i -> parts.add(Part.Image.of(i)));
    if (p instanceof Payload.UserMessage m) {
      parts.add(new Part.Text(m.text()));
      return new Conversation("", List.of(Turn.user(parts.toArray(Part[]::new))));
    }
    String text;
    if (p instanceof Payload.AssistantDone d) {
      text = d.text();
    } else if (p instanceof Payload.AssistantMessage m) {
      text = m.text();
    } else {
      throw new IllegalArgumentException("only user.message, assistant.done and assistant.message convert to a provider request, not " + frame.type());
    }
    parts.add(new Part.Text(text));
    return new Conversation("", List.of(Turn.assistant(parts.toArray(Part[]::new))));
  }

  private static byte[] mcpJson(List<McpContent> content) throws IOException {
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (McpContent c : content) {
      ObjectNode n = array.addObject();
      if (c instanceof McpContent.Text t) {
        n.put("type", "text").put("text", t.text());
      } else if (c instanceof McpContent.Image i) {
        n.put("type", "image").put("data", i.data()).put("mimeType", i.mimeType());
      }
    }
    ObjectNode result = Json.MAPPER.createObjectNode();
    result.set("content", array);
    return Json.MAPPER.writeValueAsBytes(result);
  }
}
