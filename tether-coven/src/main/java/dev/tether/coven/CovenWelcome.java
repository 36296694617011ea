package dev.tether.coven;

import java.util.List;
import java.util.Objects;

/**
 * What the gateway said when it accepted the agent.
 *
 * @param serverId the gateway instance
 * @param agentId the confirmed agent id
 * @param instanceId the short code for binding commands
 * @param principalId the principal the credentials map to
 * @param toolNames the pack tools the gateway offers (immutable)
 */
public record CovenWelcome(String serverId, String agentId, String instanceId, String principalId, List<String> toolNames) {
  public CovenWelcome {
    Objects.requireNonNull(serverId, "serverId");
    Objects.requireNonNull(agentId, "agentId");
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(principalId, "principalId");
    toolNames = List.copyOf(toolNames);
  }
}
