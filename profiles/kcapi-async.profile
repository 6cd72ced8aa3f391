# The 2023 QAT thread's other side: what an offload engine needs, asynchronous
# submission over several TFMs with deep queues; xts(aes), 4 TFMs x 16 requests
# in flight (64), each TFM's 16 in one AIO call, 4 KiB requests, every result checked
# Use: dixload --profile kcapi-async [--runtime 40 --hotload aesni_intel@8]
engine = kcapi
alg = xts(aes)
tfms = 4
submit = async
iodepth = 16
iodepth-batch = 16
bs = 4k
rw = write
verify = on
