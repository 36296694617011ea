#!/usr/bin/env bash
# The runtime dependency footprint of each published module: how many jars a user of that module
# gets on the runtime classpath (its own jar included) and how many MB they weigh. Builds the
# reactor once; sibling modules resolve to their fresh jars in target/. Prints a Markdown table.
# Usage: bash docs/footprint.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime.classpath >/dev/null
echo "| Module | Runtime jars | MB |"
echo "|---|---|---|"
for m in tether-api tether-images tether-sessions tether-media tether-client tether-client-http tether-store tether-store-sqlite \
         tether-store-jetstream tether-server tether-server-jetstream tether-llm-adapters tether-mcp tether-chat tether-telegram \
         tether-slack tether-whatsapp tether-coven tether-spring-boot-starter tether-langchain4j tether-spring-ai; do
  python3 - "$m" <<'PY'
import glob, os, sys
m = sys.argv[1]
own = [j for j in glob.glob(f"{m}/target/{m}-*.jar") if not j.endswith(("-sources.jar", "-javadoc.jar", "-tests.jar"))]
cp = open(f"{m}/target/runtime.classpath").read().strip()
jars = [p for p in cp.split(os.pathsep) if p] + own[:1]
size = sum(os.path.getsize(j) if os.path.isfile(j) else
           sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(j) for f in fs) for j in jars)
print(f"| `{m}` | {len(jars)} | {size / 1e6:.1f} |")
PY
done
