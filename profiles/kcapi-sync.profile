# The 2023 "crypto: de-prioritize QAT" thread's test module as a load: xts(aes)
# on one TFM, synchronous submission (one request per system call, so one in
# flight whatever the 112 requests queued), 4 KiB requests, every result checked
# Use: dixload --profile kcapi-sync [--runtime 40 --hotload aesni_intel@8]
engine = kcapi
alg = xts(aes)
tfms = 1
submit = sync
iodepth = 112
iodepth-batch = 112
bs = 4k
rw = write
verify = on
