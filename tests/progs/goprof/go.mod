module goprof

go 1.19
