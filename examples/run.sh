#!/usr/bin/env bash
# Builds the examples against the installed tether-java artifacts and runs the six programs on the
# module path, then the Spring Boot application's test and the LangChain4j chat-memory example.
# Run from the repository root after `./mvnw -B -q install -DskipTests`.
set -euo pipefail
cd "$(dirname "$0")"
../mvnw -B -q package
mp="target/classes:$(cat target/module-path.txt)"
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.HostExample
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.ServerExample
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.TelegramLocalExample
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.SlackLocalExample
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.WhatsAppLocalExample
java --module-path "$mp" --module dev.tether.examples/dev.tether.examples.AgentExample > target/claude-request.json
head -c 300 target/claude-request.json
echo
# The Spring Boot application (starter only): its test starts it on a free port, posts an image, reads the reply.
(cd spring-boot && ../../mvnw -B -q package)
# A LangChain4j chat memory whose images are kept once, in tether.
(cd langchain4j && ../../mvnw -B -q package && java -cp "target/classes:$(cat target/class-path.txt)" \
  dev.tether.examples.langchain4j.ChatMemoryExample)
