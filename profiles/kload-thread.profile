# The 2023 "crypto: de-prioritize QAT" thread's own method, its test module
# (module-multithreaded.c) as the dixkload module runs it: xts(aes), kernel
# threads each submitting one request and waiting for it, 112 in flight in all
# (one TFM shared by 112 threads, as the kcapi-sync profile reads the thread),
# 4 KiB requests, every result checked in the kernel against a software TFM
# Use: dixload --profile kload-thread [--runtime 40 --hotload aesni_intel@8]
engine = kload
alg = xts(aes)
tfms = 1
submit = sync
iodepth = 112
bs = 4k
rw = write
verify = on
