module bufferlab

go 1.26
