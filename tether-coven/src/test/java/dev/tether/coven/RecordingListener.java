package dev.tether.coven;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every listener call as one line, in order. */
final class RecordingListener implements CovenListener {
  final List<String> lines = new CopyOnWriteArrayList<>();
  final List<CovenWelcome> welcomes = new CopyOnWriteArrayList<>();

  @Override
  public void onConnecting(String target, int attempt) {
    lines.add("connecting " + target + " #" + attempt);
  }

  @Override
  public void onRegistered(CovenWelcome welcome) {
    welcomes.add(welcome);
    lines.add("registered " + welcome.instanceId());
  }

  @Override
  public void onDisconnected(String reason, Duration retryIn) {
    lines.add("disconnected " + reason);
  }

  @Override
  public void onRequestEnded(String requestId, String outcome) {
    lines.add("ended " + requestId + " " + outcome);
  }

  @Override
  public void onWarning(String message) {
    lines.add("warning " + message);
  }

  @Override
  public void onTerminated(CovenTermination termination) {
    lines.add("terminated " + termination);
  }
}
