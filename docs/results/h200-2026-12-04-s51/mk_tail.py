#!/usr/bin/env python3
# Template variants for session 51's tail-hint A/B: the output hint (keep_out) only on the rows
# of the last N MiB of output (rms_norm_row's stores), the earlier rows stored plainly.
import pathlib, shutil, sys
src = pathlib.Path(sys.argv[1]); out = pathlib.Path(sys.argv[2])
for mib in [int(a) for a in sys.argv[3:]]:
    d = out / f"tail{mib}"
    if d.exists(): shutil.rmtree(d)
    shutil.copytree(src, d)
    f = d / "rms_norm.cuh"
    t = f.read_text()
    old_sig = "__device__ __forceinline__ void store_out_vec(T* row, int col, const float (&y)[kVec]) {\n"
    assert old_sig in t
    old_body = """  if constexpr (Cfg::kKeepOut && !kKeep && sizeof(T) == 2 && kVec * sizeof(T) == 16 && kItems >= 4)
    store_vec_keep_at<T, kVec>(row, (long long)col * (long long)sizeof(T), y);
  else
    store_vec<T, kVec, Cfg::kKeepOut>(row + col, y);
"""
    assert old_body in t
    new_body = """  if (Cfg::kKeepOut && !tail) store_vec<T, kVec, false>(row + col, y);
  else if constexpr (Cfg::kKeepOut && !kKeep && sizeof(T) == 2 && kVec * sizeof(T) == 16 && kItems >= 4)
    store_vec_keep_at<T, kVec>(row, (long long)col * (long long)sizeof(T), y);
  else
    store_vec<T, kVec, Cfg::kKeepOut>(row + col, y);
"""
    t = t.replace(old_sig, "__device__ __forceinline__ void store_out_vec(T* row, int col, const float (&y)[kVec], bool tail) {\n")
    t = t.replace(old_body, new_body)
    call = "store_out_vec<Cfg, kKeep, kItems>(y_row, col_of(it), y);"
    assert t.count(call) == 2
    t = t.replace(call, "store_out_vec<Cfg, kKeep, kItems>(y_row, col_of(it), y, keep_tail);")
    anchor = "  const bool active = kRows == 1 || row < p.rows;\n"
    assert t.count(anchor) == 1
    t = t.replace(anchor, anchor + f"""  // Variant (session 51): the hint on the last {mib} MiB of output only.
  constexpr i64 kTailRows = (i64({mib}) << 20) / (i64(Cfg::kHidden) * i64(sizeof(typename Cfg::Out)));
  const bool keep_tail = row >= p.rows - (kTailRows > 0 ? kTailRows : 1);
""")
    f.write_text(t)
    print("wrote", d)
