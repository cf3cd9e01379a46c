# Session 70, call 1: step R of decode_anatomy (the weight read from several copies, or in a
# rotated order) at the 128-row decode misses; with and without an L2 flush before each replay.
source scripts/device_call.sh s70call1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > "$R/gpu.txt" 2>&1
cat "$R/gpu.txt"
chmod +x build-tmp/decode_anatomy
for run in 1 2; do
  timeout 150 build-tmp/decode_anatomy --script R > "$R/rep-call1-$run.txt" 2>&1; echo "R $run rc=$? at $(elapsed) s"
  timeout 150 build-tmp/decode_anatomy --flush --script R > "$R/rep-flush-call1-$run.txt" 2>&1; echo "R flush $run rc=$? at $(elapsed) s"
done
cat "$R"/rep-call1-1.txt "$R"/rep-flush-call1-1.txt "$R"/rep-call1-2.txt "$R"/rep-flush-call1-2.txt
