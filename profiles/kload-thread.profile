# The 2023 "crypto: de-prioritize QAT" thread's own method, its test module
# (module-multithreaded.c) as the dixkload module runs it: xts(aes), kernel
# threads each submitting one request and waiting for it, 112 in flight in all
# (one TFM shared by 112 threads, as the kcapi-sync profile reads the thread),
# 4 KiB requests, 1 result in 16 checked in the kernel against its software
# reference: checking every one took 92 % of the guest's CPU and hid the
# hot-load (1.24 -> 1.62 MB/s, 1.30x, not significant; measured on 6.1.0-50),
# and the thread's table is a throughput table (--verify-every 1 for a
# correctness run)
# Use: dixload --profile kload-thread [--runtime 40 --hotload aesni_intel@8]
engine = kload
alg = xts(aes)
tfms = 1
submit = sync
iodepth = 112
bs = 4k
rw = write
verify = on
verify-every = 16
